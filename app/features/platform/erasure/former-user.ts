/** What a person whose personal data was erased is called wherever their name stood. */
export const FORMER_USER = "Former user";
