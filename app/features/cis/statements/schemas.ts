import { z } from "zod";
import { isTaxMonthLabel } from "../domain/tax-month";
import { STATEMENT_ISSUE_METHODS } from "./issue-codes";
import { STATEMENT_FILTERS } from "./statement-codes";

/** The statements list's filter: anything unknown shows all. */
export const statementFilterSchema = z.enum(STATEMENT_FILTERS).catch("all");

const monthField = z.string().refine(isTaxMonthLabel);

/** A page of the statements list: anything that is not a whole number from 1 shows the first. */
export const statementPageSchema = z.coerce.number().int().min(1).max(100_000).catch(1);

/** Generating one subcontractor's statement, or every statement of the month. */
export const statementsActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("generate"),
    subcontractorId: z.string().min(1).max(64),
    month: monthField,
    filter: statementFilterSchema,
    page: statementPageSchema,
  }),
  z.object({ intent: z.literal("generate-all"), month: monthField, filter: statementFilterSchema }),
]);

/** Issuing a statement (e-mail, portal or print); returnTo is checked to be a same-origin path. */
export const issueStatementSchema = z.object({ method: z.enum(STATEMENT_ISSUE_METHODS), returnTo: z.string().max(2000).optional() });

/** Sending an issued statement's e-mail again. */
export const resendStatementSchema = z.object({ returnTo: z.string().max(2000).optional() });
