/** A decimal number (with a point) written with the dialect's decimal mark, never as text. */
export interface CsvDecimal {
  decimal: string;
}

/** A cell value as it goes into the CSV. */
export type CsvCell = string | number | boolean | null | CsvDecimal;

/**
 * How the caller's spreadsheet reads CSV: an English one splits on commas and reads a decimal
 * point; a Russian one (Excel with the Russian list separator) splits on semicolons and reads a
 * decimal comma, so a comma-separated file opens there as one column.
 */
export interface CsvDialect {
  separator: ',' | ';';
  decimalMark: '.' | ',';
}

export const COMMA_CSV: CsvDialect = { separator: ',', decimalMark: '.' };
export const SEMICOLON_CSV: CsvDialect = { separator: ';', decimalMark: ',' };

/** Excel, LibreOffice and Sheets run a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /["\r\n]/;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice); numbers, decimals and booleans are written as they are, so negative
 * amounts stay numbers.
 */
export function csvField(value: CsvCell, dialect: CsvDialect = COMMA_CSV): string {
  if (value === null) return '';
  if (typeof value === 'object') return value.decimal.replace('.', dialect.decimalMark);
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) || text.includes(dialect.separator) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvCell[], dialect: CsvDialect = COMMA_CSV): string {
  return `${cells.map((cell) => csvField(cell, dialect)).join(dialect.separator)}\r\n`;
}

/** A byte-order mark first, so spreadsheet programs read the file as UTF-8 (Cyrillic names). */
export const CSV_BOM = '\ufeff';
