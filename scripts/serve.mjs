// `node scripts/serve.mjs [root] [port]`: serves the playground on 127.0.0.1.
import { startServer } from "./static-server.mjs";

const root = process.argv[2] ?? ".";
const port = Number(process.env.PORT ?? process.argv[3] ?? 8000);
const { url } = await startServer(root, port);
console.log(`Queuelab playground: ${url}`);
