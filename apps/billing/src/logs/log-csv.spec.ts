import { COMMA_CSV, csvField, csvLine, SEMICOLON_CSV } from './log-csv';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('defuses text a spreadsheet would run as a formula, but keeps numbers numbers', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField(-150)).toBe('-150');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
  });

  it('ends a line with CRLF', () => {
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});

describe('CSV dialects', () => {
  it('writes a decimal with the dialect’s mark and separates with its separator, quoting text that holds it', () => {
    expect(csvLine([{ decimal: '-0.0555' }, 'a;b', 'c,d'], SEMICOLON_CSV)).toBe('-0,0555;"a;b";c,d\r\n');
    expect(csvLine([{ decimal: '-0.0555' }, 'a;b', 'c,d'], COMMA_CSV)).toBe('-0.0555,a;b,"c,d"\r\n');
  });
});
