import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../../errors/relay-error';
import type { CallableModel } from '../../models/model-listing';
import {
  ANTHROPIC_DEFAULT_PAGE_SIZE,
  ANTHROPIC_MAX_PAGE_SIZE,
  anthropicModelPage,
  toAnthropicModel,
} from './models';

const model = (name: string, contextWindow = 200_000): CallableModel => ({
  name,
  provider: 'anthropic',
  contextWindow,
  updatedAt: 1_700_000_000,
});
const many = (count: number) =>
  Array.from({ length: count }, (_, i) => model(`m-${String(i).padStart(4, '0')}`));
const ids = (page: { data: { id: string }[] }) => page.data.map((m) => m.id);

describe('toAnthropicModel', () => {
  it("renders a callable model as Anthropic's ModelInfo, created_at in RFC 3339", () => {
    expect(toAnthropicModel(model('claude-x'))).toEqual({
      type: 'model',
      id: 'claude-x',
      display_name: 'claude-x',
      created_at: '2023-11-14T22:13:20Z',
      capabilities: null,
      deprecated_at: null,
      lifecycle: 'active',
      line: null,
      max_input_tokens: 200_000,
      max_tokens: null,
      retires_at: null,
    });
  });

  it('says null for the context window when the catalogue does not know it', () => {
    expect(toAnthropicModel(model('x', 0)).max_input_tokens).toBeNull();
  });
});

describe('anthropicModelPage', () => {
  it('gives every model on one page when they fit, with its first and last id', () => {
    expect(anthropicModelPage([model('a'), model('b')], {})).toEqual({
      data: [toAnthropicModel(model('a')), toAnthropicModel(model('b'))],
      has_more: false,
      first_id: 'a',
      last_id: 'b',
    });
    expect(anthropicModelPage([], {})).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it('pages forward by limit and after_id (last_id), neither repeating nor skipping a model', () => {
    const models = many(5);
    const first = anthropicModelPage(models, { limit: '2' });
    expect(first).toMatchObject({ has_more: true, first_id: 'm-0000', last_id: 'm-0001' });
    const second = anthropicModelPage(models, { limit: '2', after_id: first.last_id });
    expect(ids(second)).toEqual(['m-0002', 'm-0003']);
    expect(second.has_more).toBe(true);
    const last = anthropicModelPage(models, { limit: '2', after_id: second.last_id });
    expect(last).toMatchObject({ has_more: false, first_id: 'm-0004', last_id: 'm-0004' });
  });

  it('pages backward by before_id (first_id), has_more saying whether earlier models remain', () => {
    const models = many(5);
    const page = anthropicModelPage(models, { limit: '2', before_id: 'm-0004' });
    expect(ids(page)).toEqual(['m-0002', 'm-0003']);
    expect(page.has_more).toBe(true);
    const earliest = anthropicModelPage(models, { limit: '2', before_id: 'm-0001' });
    expect(earliest).toMatchObject({ has_more: false, first_id: 'm-0000', last_id: 'm-0000' });
  });

  it('resumes after a cursor whose model was removed meanwhile', () => {
    const withoutSecond = many(4).filter((m) => m.name !== 'm-0001');
    expect(ids(anthropicModelPage(withoutSecond, { after_id: 'm-0001' }))).toEqual(['m-0002', 'm-0003']);
    expect(ids(anthropicModelPage(withoutSecond, { before_id: 'm-0001' }))).toEqual(['m-0000']);
  });

  it('uses 20 a page by default and up to 1000 when asked', () => {
    expect(anthropicModelPage(many(30), {}).data).toHaveLength(ANTHROPIC_DEFAULT_PAGE_SIZE);
    expect(anthropicModelPage(many(1200), { limit: '1000' }).data).toHaveLength(ANTHROPIC_MAX_PAGE_SIZE);
  });

  it.each([
    ['a limit of 0', { limit: '0' }],
    ['a limit above 1000', { limit: '1001' }],
    ['a limit that is no integer', { limit: 'lots' }],
    ['both cursors', { after_id: 'a', before_id: 'b' }],
    ['an empty cursor', { after_id: '' }],
  ])('refuses %s as a validation error', (_what, query) => {
    let thrown: unknown;
    try {
      anthropicModelPage(many(3), query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RelayError);
    expect((thrown as RelayError).code).toBe(ErrorCode.ValidationFailed);
  });
});
