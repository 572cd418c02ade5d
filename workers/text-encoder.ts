// The Worker's entry imports this module before anything else, so every module evaluated after
// it (React's server renderer above all, which keeps one encoder from when it loads) encodes
// short ASCII strings without a call into the runtime per string (ADR 0083).
import { ShortTextEncoder } from "../app/utils/short-text-encoder";

globalThis.TextEncoder = ShortTextEncoder;
