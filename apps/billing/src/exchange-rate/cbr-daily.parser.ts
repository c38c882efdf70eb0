import { XMLParser } from 'fast-xml-parser';

/** One currency's rate from the bank's daily list: rubles per one unit, as an exact decimal string. */
export interface BankRate {
  rate: string;
  /** The date the list is for, as the bank writes it (`22.11.2026`). */
  date: string;
}

export class CbrFormatError extends Error {
  override readonly name = 'CbrFormatError';
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

/** `81,1234` (rubles for `nominal` units) → `81.1234` per unit, exactly: dividing by the nominal only shifts digits when it is a power of ten. */
function perUnit(value: string, nominal: string): string {
  const decimal = value.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(decimal)) throw new CbrFormatError(`unreadable rate "${value}"`);
  if (!/^10*$/.test(nominal.trim())) throw new CbrFormatError(`unsupported nominal "${nominal}"`);
  const zeros = nominal.trim().length - 1;
  if (zeros === 0) return decimal;
  const [whole, fraction = ''] = decimal.split('.');
  const digits = whole!.padStart(zeros + 1, '0') + fraction;
  const point = digits.length - fraction.length - zeros;
  return `${digits.slice(0, point).replace(/^0+(?=\d)/, '')}.${digits.slice(point)}`;
}

/**
 * Reads `code`'s rate from the bank's XML_daily document
 * (`<ValCurs Date="…"><Valute><CharCode>USD</CharCode><Nominal>1</Nominal><Value>81,1234</Value>…`).
 */
export function parseCbrDaily(xml: string, code = 'USD'): BankRate {
  let document: unknown;
  try {
    document = parser.parse(xml, true);
  } catch (error) {
    throw new CbrFormatError(`not an XML document: ${(error as Error).message}`);
  }
  const list = (document as { ValCurs?: { '@Date'?: string; Valute?: unknown } }).ValCurs;
  if (!list) throw new CbrFormatError('no ValCurs element');
  const valutes = (Array.isArray(list.Valute) ? list.Valute : [list.Valute]) as Array<
    Record<string, string> | undefined
  >;
  const valute = valutes.find((entry) => entry?.['CharCode']?.trim() === code);
  if (!valute) throw new CbrFormatError(`no ${code} rate in the list`);
  const rate = perUnit(valute['Value'] ?? '', valute['Nominal'] ?? '1');
  if (!/[1-9]/.test(rate)) throw new CbrFormatError(`${code} rate is zero`);
  return { rate, date: list['@Date'] ?? '' };
}
