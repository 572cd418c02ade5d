/**
 * Composition root for the server runtime: each feature's registration (its `register.server.ts`:
 * job types, cron tasks, start-up hooks) is listed here once. Importing this file registers the
 * jobs with the JOBS consumer and runs the hooks; workers/cron builds its schedule from the same
 * list. Server only (job code reaches the database), so it is imported by workers/app.ts rather
 * than app/scopes.ts, which the client bundle also loads.
 */
import { authServer } from "~/features/auth/register.server";
import { cisServer } from "~/features/cis/register.server";
import { filesServer } from "~/features/files/register.server";
import { chatServer } from "~/features/chat/register.server";
import { notesServer } from "~/features/notes/register.server";
import { registerServerFeatures, type ServerFeature } from "~/features/platform/index.server";
import { platformServer } from "~/features/platform/register.server";
import { scheduleServer } from "~/features/schedule/register.server";

export const SERVER_FEATURES: readonly ServerFeature[] = [platformServer, authServer, cisServer, filesServer, chatServer, notesServer, scheduleServer];

registerServerFeatures(SERVER_FEATURES);
