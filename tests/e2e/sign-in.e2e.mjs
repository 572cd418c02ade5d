// Sign-in flows: PLACEHOLDERS. Each todo() below is listed by the runner but counted neither
// passed nor failed. Replace each with scenario(...) once the flow exists, e.g.:
//
//   scenario("admin signs in with password and e-mailed code", async ({ page, js }) => {
//     const since = Date.now();
//     await page.goto(tenantUrl("acme", "/login"));
//     await page.getByLabel("Email").fill(ACCOUNTS.acmeAdmin);
//     ...
//     const mail = await waitForMail(ACCOUNTS.acmeAdmin, { since });
//   });
import { todo } from "./helpers.mjs";

todo("admin@acme.test signs in with password (and code if asked) and lands on Acme's home");
todo("manager@acme.test (two-factor on) must enter the code from /dev/mailbox");
todo("a wrong password shows an error and keeps the e-mail typed in");
todo("an Acme session does not sign the user in to Globex");
todo("sign out ends the session; the back button does not show the workspace again");
todo("theme form in the user menu (POST /preferences/theme) switches the theme and shows the toast");
todo("superadmin@workspace.test signs in on the bare domain");
