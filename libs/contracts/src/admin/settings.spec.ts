import {
  optionDecimal,
  optionFlag,
  optionInteger,
  optionList,
  optionText,
  settingValueProblem,
  SETTINGS_CATALOGUE,
} from './settings';

describe('settings as new-api keeps them', () => {
  it('reads true/false (and 1/0) as flags, anything else as not set', () => {
    expect(optionFlag('true')).toBe(true);
    expect(optionFlag(' FALSE ')).toBe(false);
    expect(optionFlag('1')).toBe(true);
    expect(optionFlag('0')).toBe(false);
    expect(optionFlag('maybe')).toBeUndefined();
    expect(optionFlag(undefined)).toBeUndefined();
  });

  it('reads comma-separated lists without blanks, and an unset option as undefined', () => {
    expect(optionList(' gpt-4o, ,claude-haiku ')).toEqual(['gpt-4o', 'claude-haiku']);
    expect(optionList('')).toEqual([]);
    expect(optionList(undefined)).toBeUndefined();
  });
});

describe('the settings catalogue', () => {
  it('accepts good values and unsetting, and names a bad one’s problem as a kind and its numbers', () => {
    expect(settingValueProblem('RegisterEnabled', 'false')).toBeUndefined();
    expect(settingValueProblem('RegisterEnabled', 'nope')).toEqual({ kind: 'not_flag' });
    expect(settingValueProblem('QuotaForNewUser', '500000')).toBeUndefined();
    expect(settingValueProblem('QuotaForNewUser', '-1')).toEqual({ kind: 'not_whole_number' });
    expect(settingValueProblem('QuotaForNewUser', '1.5')).toEqual({ kind: 'not_whole_number' });
    expect(settingValueProblem('AffiliateRewardPercent', '12.5')).toBeUndefined();
    expect(settingValueProblem('AffiliateRewardPercent', '1.1234567')).toEqual({
      kind: 'not_decimal',
      decimals: 6,
    });
    expect(settingValueProblem('AffiliateRewardPercent', '101')).toEqual({ kind: 'above_max', max: 100 });
    expect(settingValueProblem('LogRetentionDays', '36501')).toEqual({ kind: 'above_max', max: 36_500 });
    expect(settingValueProblem('SMTPFrom', 'Tollgate <no-reply@tollgate.ru>')).toBeUndefined();
    expect(settingValueProblem('SMTPFrom', 'not an address')).toEqual({ kind: 'not_mailbox' });
    expect(settingValueProblem('ServerAddress', 'ftp://x')).toEqual({ kind: 'not_http_address' });
    expect(settingValueProblem('GitHubClientId', 'Iv1.abc 123')).toEqual({
      kind: 'not_one_word',
      max_length: 256,
    });
    expect(settingValueProblem('QuotaForNewUser', '')).toBeUndefined();
    expect(settingValueProblem('SomethingElse', 'anything')).toBeUndefined();
  });

  it('checks a JSON setting by its schema, naming the wrong field or showing an example', () => {
    const example = '{"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}}';
    expect(settingValueProblem('GroupRateLimits', '{"vip": {"rpm": 120}}')).toBeUndefined();
    expect(settingValueProblem('GroupRateLimits', '{"vip": ')).toEqual({ kind: 'not_json_like', example });
    expect(settingValueProblem('GroupRateLimits', '[1]')).toEqual({ kind: 'not_json_like', example });
    expect(settingValueProblem('GroupRateLimits', '{"vip": {"rpm": -1}}')).toEqual({
      kind: 'json_field_invalid',
      field: 'vip.rpm',
    });
  });

  it('keeps no prose in a problem: every value is a kind, a number or a name from the input', () => {
    const problems = [
      settingValueProblem('RegisterEnabled', 'nope'),
      settingValueProblem('LogRetentionDays', '36501'),
      settingValueProblem('SMTPFrom', 'x'),
      settingValueProblem('GroupRateLimits', '{"vip": {"rpm": -1}}'),
    ];
    for (const problem of problems) {
      expect(JSON.stringify(problem)).not.toMatch(/must|должн/);
    }
  });

  it('reads numbers and text back', () => {
    expect(optionInteger(' 42 ')).toBe(42);
    expect(optionInteger('4.2')).toBeUndefined();
    expect(optionDecimal('012.50')).toBe('12.5');
    expect(optionDecimal('7')).toBe('7');
    expect(optionDecimal('7.000')).toBe('7');
    expect(optionDecimal('x')).toBeUndefined();
    expect(optionText('  ')).toBeUndefined();
    expect(optionText(' id ')).toBe('id');
  });

  it('names every catalogued key once', () => {
    const keys = SETTINGS_CATALOGUE.map((setting) => setting.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
