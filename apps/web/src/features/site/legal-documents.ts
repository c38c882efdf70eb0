/** The legal texts (SPEC §2 /privacy, /terms, /offer): how many numbered sections each has in the site namespace. */
export const LEGAL_DOCUMENTS = { privacy: 8, terms: 7, offer: 8 } as const;
export type LegalDocument = keyof typeof LEGAL_DOCUMENTS;
