/** A `data:<mime>;base64,<data>` URL split into its parts. */
export interface InlineImage {
  mimeType: string;
  data: string;
}

const DATA_URL = /^data:([^;,]+)(?:;[^;,=]+=[^;,]+)*;base64,(.*)$/s;

export function parseBase64DataUrl(url: string): InlineImage | undefined {
  const match = DATA_URL.exec(url);
  return match === null ? undefined : { mimeType: match[1]!, data: match[2]! };
}

export function toBase64DataUrl(image: InlineImage): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
