// The port of the local development server and the APP_DOMAIN that follows it. Read by
// vite.config.ts (the server's port and the Worker's APP_DOMAIN) and scripts/dev.mjs (the
// welcome text), so `PORT=5181 npm run dev` and `npm run dev -- --port 5181` agree everywhere.

export const DEFAULT_DEV_PORT = 5173;

function parsePort(value, source) {
  const text = String(value).trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`${source} must be a port number from 1 to 65535, not "${value}"`);
  return port;
}

/** `--port N` or `--port=N` on the command line, else the PORT variable, else 5173. */
export function devPort({ env = process.env, argv = process.argv.slice(2) } = {}) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--port") return parsePort(argv[i + 1] ?? "", "--port");
    if (a.startsWith("--port=")) return parsePort(a.slice("--port=".length), "--port");
  }
  if (env.PORT !== undefined && env.PORT !== "") return parsePort(env.PORT, "PORT");
  return DEFAULT_DEV_PORT;
}

/** Tenants live at <slug>.localhost:<port>; the bare localhost:<port> is the public site. */
export function devAppDomain(port) {
  return `localhost:${port}`;
}
