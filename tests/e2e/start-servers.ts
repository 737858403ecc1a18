import { e2eServers } from "../playwright.config.ts";
import { startServerProcess } from "./server-process.ts";

/**
 * Playwright's global setup: every browser-test server at once (Playwright's own `webServer` list
 * starts them one after another, each first build waiting for the last), ready when all answer;
 * the returned teardown stops them.
 */
export default async function startServers(): Promise<() => Promise<void>> {
  const servers = e2eServers.map((server) => startServerProcess(server));
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    await Promise.all(servers.map((server) => server.ready));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
