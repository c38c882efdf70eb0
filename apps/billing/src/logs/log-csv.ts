/** A cell value as it goes into the CSV. */
export type CsvCell = string | number | boolean | null;

/** Excel, LibreOffice and Sheets run a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice); numbers and booleans are written as they are, so negative amounts stay numbers.
 */
export function csvField(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** A byte-order mark first, so spreadsheet programs read the file as UTF-8 (Cyrillic names). */
export const CSV_BOM = '\ufeff';
