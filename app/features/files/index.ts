// Public surface of the files feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export { STORAGE_TIERS } from "./file-constants";
export { formatBytes } from "./sizes";
export { boundaryOf, type FilePart, MultipartError, readMultipart } from "./multipart";
export { SignatureFacts } from "./signatures/components/signature-facts";
export { SigningSteps, type SignActionData } from "./signatures/components/signing-steps";
export { SIGNATURE_MESSAGES, SIGNATURE_STEPS, statusLabel } from "./signatures/signature-rules";
