import { SUBMISSION_KEY_FIELD } from "../submission-key-codes";

/**
 * The form's one-time submission key (minted by the loader with `mintSubmissionKey`): the
 * server acts on the first post carrying it and answers a repeat with the first result.
 */
export function SubmissionKeyInput({ value }: { value: string }) {
  return <input type="hidden" name={SUBMISSION_KEY_FIELD} value={value} />;
}
