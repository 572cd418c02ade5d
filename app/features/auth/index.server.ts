// Public surface of the auth feature for server code (loaders, actions, jobs, other *.server.ts modules).
// Other code imports this feature only through here or index.ts (ADR 0049, checked by `npm run lint`).
export { runAuthHousekeeping } from "./housekeeping.server";
export { optionalUser, requireScope, requireTenant, requireUser, requireUserWithScope, safeRedirectPath } from "./middleware.server";
export { isStrongPassword, type PasswordContext, WEAK_PASSWORD_MESSAGE } from "./password-strength.server";
export { hashPassword, verifyPassword } from "./password.server";
export {
  clearSessionCookie,
  createSession,
  liveTenantSessionStatement,
  liveTenantSessionUserId,
  loadPlatformSession,
  newSession,
  readSessionToken,
  revokeSession,
  revokeSessionsOfUsersStatements,
  revokeTenantSessionsStatement,
  revokeUserSessionsStatement,
  SESSION_POLICY,
  staffSessionHash,
  staffSessionStatement,
  staffSessionUser,
  staffSignInStatementsWhere,
  touchSession,
} from "./session.server";
export { insertDefaultRoleBundlesStatements, setRoleBundleScopesStatement } from "./role-bundle-writes.server";
export { countAttempt, refundAttempt, throttleMessage } from "./throttle.server";
export { burnToken, signToken, signTokenWith, type VerifiedToken, verifyToken } from "./tokens.server";
export {
  activateUserStatement,
  burnTokenStatement,
  deleteUserSessionsStatement,
  insertUserStatement,
  reinviteUserStatement,
  resetPasswordStatement,
  revokeOwnStaffSessionStatement,
  revokeSessionsAfterDisableStatement,
  revokeSessionsAfterPasswordChangeStatement,
  scrubUserStatement,
  setDisplayNameStatement,
  setPasswordStatement,
  setUserDisabledStatement,
  setUserRoleStatement,
} from "./user-writes.server";
export { defaultDisplayName } from "./users.server";
export { mayEnter, moduleOn, type RequestContext, requireConsole, requireModule } from "./guard.server";
export { authServer } from "./register.server";
export { registerShellCount, type ShellCount } from "./shell-counts.server";
