import { CbrFormatError, parseCbrDaily } from './cbr-daily.parser';

const daily = (valutes: string, date = '22.11.2026') =>
  `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="${date}" name="Foreign Currency Market">${valutes}</ValCurs>`;
const valute = (code: string, nominal: string, value: string) =>
  `<Valute ID="R0"><NumCode>0</NumCode><CharCode>${code}</CharCode><Nominal>${nominal}</Nominal><Name>—</Name><Value>${value}</Value></Valute>`;

describe('parseCbrDaily', () => {
  it('reads the USD rate with its comma decimal as an exact decimal string, and the list date', () => {
    const xml = daily(
      valute('AUD', '1', '52,0101') + valute('USD', '1', '81,1234') + valute('EUR', '1', '94,5'),
    );
    expect(parseCbrDaily(xml)).toEqual({ rate: '81.1234', date: '22.11.2026' });
  });

  it('divides a rate quoted for 10 or 100 units by shifting digits, without floating point', () => {
    expect(parseCbrDaily(daily(valute('JPY', '100', '53,0127')), 'JPY').rate).toBe('0.530127');
    expect(parseCbrDaily(daily(valute('CNY', '10', '112,4')), 'CNY').rate).toBe('11.24');
  });

  it('accepts a list holding a single currency', () => {
    expect(parseCbrDaily(daily(valute('USD', '1', '90,0000'))).rate).toBe('90.0000');
  });

  it.each([
    ['no USD entry', daily(valute('EUR', '1', '94,5')), /no USD rate/],
    ['an unreadable value', daily(valute('USD', '1', 'n/a')), /unreadable rate/],
    ['a zero rate', daily(valute('USD', '1', '0,0000')), /zero/],
    ['an HTML error page', '<html><body>Service unavailable</body></html>', /no ValCurs/],
  ])('refuses %s', (_name, xml, message) => {
    expect(() => parseCbrDaily(xml)).toThrow(CbrFormatError);
    expect(() => parseCbrDaily(xml)).toThrow(message);
  });
});
