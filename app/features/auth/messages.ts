// Sign-in messages the pages show and the schemas use. No zod here, so browser code can import
// them without carrying the schemas (the browser validates nothing; the server does).

/** The sign-in code is six digits; spaces are ignored. */
export const CODE_FORMAT = "Enter the 6-digit code from the e-mail we sent you, like 123456";

export const INVALID_CODE = "That code is wrong or has expired. Enter the code from the latest e-mail, or send a new one.";
