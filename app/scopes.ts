/**
 * Composition root for scopes: every feature's scopes are registered with platform auth here,
 * at run time for can()/requireScope and at type level for the `Scope` union. Imported for
 * its effect by app/entry.server.tsx (loaders and actions), workers/app.ts (queues and cron,
 * which run without the router) and the integration tests' setup. Never by browser code: the
 * browser checks no scope, and the lists and descriptions would ride in every page's bundle.
 */
import { registerScopes } from "~/features/auth";
import { CIS_SCOPE_REGISTRATION, type CisScope } from "~/features/cis/domain/scopes";
import { CHAT_SCOPE_REGISTRATION, type ChatScope } from "~/features/chat/domain/scopes";
import { NOTES_SCOPE_REGISTRATION, type NotesScope } from "~/features/notes";
import { SCHEDULE_SCOPE_REGISTRATION, type ScheduleScope } from "~/features/schedule/domain/scopes";

declare module "~/features/auth/scopes" {
  interface RegisteredScopes {
    cis: CisScope;
    chat: ChatScope;
    notes: NotesScope;
    schedule: ScheduleScope;
  }
}

/** Each feature's scope registration (prefix, scopes, implications), defined in its own folder. */
export const FEATURE_SCOPES = [CIS_SCOPE_REGISTRATION, CHAT_SCOPE_REGISTRATION, NOTES_SCOPE_REGISTRATION, SCHEDULE_SCOPE_REGISTRATION];
for (const registration of FEATURE_SCOPES) registerScopes(registration);
