/**
 * The comparison point of bench/http.ts: the same HTML, captured from the app, served as static
 * files by a bare node:http server, compressed once ahead of time with the app's on-the-fly
 * settings (brotli 4 / gzip 6) so both send the same bytes. Usage: static-server.ts DIR PORT.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";

const [dir, port] = process.argv.slice(2) as [string, string];
const files = new Map<string, { identity: Buffer; br: Buffer; gzip: Buffer }>();
for (const name of fs.readdirSync(dir)) {
  const identity = fs.readFileSync(path.join(dir, name));
  const url = name === "index.html" ? "/" : `/${name.replace(/\.html$/, "")}`;
  files.set(url, {
    identity,
    br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
    gzip: zlib.gzipSync(identity, { level: 6 }),
  });
}

http
  .createServer((req, res) => {
    const file = files.get(req.url ?? "/");
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : "identity";
    const headers: http.OutgoingHttpHeaders = { "Content-Type": "text/html; charset=utf-8", Vary: "Accept-Encoding" };
    if (encoding !== "identity") headers["Content-Encoding"] = encoding;
    res.writeHead(200, headers).end(file[encoding]);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
