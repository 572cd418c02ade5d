/**
 * The one shape of an outcome that can be refused: `{ ok: true, ...fields }` or
 * `{ ok: false, code, ...details }`. Codes are string-literal unions checked by the compiler,
 * never compared as text; each module keeps the message map for its codes beside them.
 *
 *   type SaveResult = Result<{ id: string }, "not_found" | "stale">;
 *   type ResetResult = Result<void, "throttled" | "weak_password", { waitMs?: number }>;
 *
 * `void` stands for "no fields": `Result<void, C>` is `{ ok: true } | { ok: false; code: C }`.
 */
type Fields<T> = [T] extends [void] ? unknown : T;

export type Ok<T extends object | void = void> = { ok: true } & Fields<T>;
export type Err<Code extends string, Details extends object | void = void> = { ok: false; code: Code } & Fields<Details>;
export type Result<T extends object | void = void, Code extends string = string, Details extends object | void = void> = Ok<T> | Err<Code, Details>;

/** A refusal's code, whatever the result: `CodeOf<SaveResult>` is "not_found" | "stale". */
export type CodeOf<R> = R extends { ok: false; code: infer C } ? C : never;
