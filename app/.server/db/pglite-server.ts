import fs from "node:fs";
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite spoken to over PostgreSQL's wire protocol, so that several app processes share the one
 * embedded database as they would share a PostgreSQL server (`pg` pools, LISTEN/NOTIFY): the
 * process that owns PGlite serves it on a Unix socket, the app workers connect with DATABASE_URL
 * pointing at it (docs/decisions/0022-every-core.md).
 *
 * PGlite is one PostgreSQL session. Connections take turns at the level of a whole request — a
 * simple query (Q), or the extended-protocol messages up to their Sync (P B D E ... S) — so one
 * client's unnamed statement is never replaced by another's between its Parse and its Execute; a
 * client that opened a transaction keeps the session until it ends it, the others wait (and a
 * client that disconnects mid-transaction is rolled back). LISTEN/NOTIFY is per connection as on
 * PostgreSQL: the server remembers who listens to what, takes the notifications out of every
 * answer and sends each to the connections listening on its channel.
 * (@electric-sql/pglite-socket interleaves clients message by message, which lets a second
 * client's Parse replace the first one's unnamed statement before its Bind: not usable by a pool.)
 *
 * Named prepared statements are shared by every connection, as they live in the one session: a name
 * means one statement text for everyone (the app names a statement after its text, ./client.ts).
 * A connection that parses a name the session already holds with the same text gets ParseComplete
 * without planning it again; a Bind on a name the session dropped (Close, or the oldest beyond
 * PREPARED_STATEMENTS_KEPT) parses it again first from the text last seen. PostgreSQL then keeps
 * each statement's plan instead of planning every query, which is most of PGlite's time on a page.
 *
 * Not supported, as nothing here uses them: a name reused by another connection for another text
 * (an error, as PGlite already holds it), COPY, session settings per connection (SET applies to
 * everyone), cancel requests (ignored).
 */

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;

/** A protocol message: its type, its length, its body. */
export function message(type: string, body: Buffer = Buffer.alloc(0)) {
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0, "latin1");
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}
export const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");
const parameterStatus = (name: string, value: string) => message("S", Buffer.concat([cstring(name), cstring(value)]));
const readyForQuery = (status: string) => message("Z", Buffer.from(status, "latin1"));
function errorResponse(code: string, text: string) {
  return message(
    "E",
    Buffer.concat([Buffer.from("SERROR\0", "utf8"), Buffer.from(`C${code}\0`), Buffer.from(`M${text}\0`, "utf8"), Buffer.from([0])]),
  );
}

/** Splits protocol bytes (a backend answer, or a client's extended-protocol unit) into messages: (type, whole message bytes). */
function* protocolMessages(data: Buffer) {
  let offset = 0;
  while (offset + 5 <= data.length) {
    const length = data.readInt32BE(offset + 1);
    yield { type: String.fromCharCode(data[offset]!), bytes: data.subarray(offset, offset + 1 + length) };
    offset += 1 + length;
  }
}

/**
 * How many named statements the session keeps prepared (least recently used dropped first): each
 * holds its plan in PGlite's memory. The app's own statements are well under this number. The
 * in-process PGlite keeps as many of its own (./pglite-plans.ts).
 */
export const PREPARED_STATEMENTS_KEPT = 300;

/** The null-terminated string at `offset` of a message, and where it ends. */
function cstringAt(bytes: Buffer, offset: number) {
  const end = bytes.indexOf(0, offset);
  return { text: bytes.toString("utf8", offset, end), end };
}

const PARSE_COMPLETE = message("1");

/** LISTEN/UNLISTEN sent as a simple query (how pg and our listener send them). */
const LISTEN = /^\s*(unlisten|listen)\s+("?)([A-Za-z_][A-Za-z0-9_$]*|\*)\2\s*;?\s*$/i;

interface Unit {
  connection: Connection;
  bytes: Buffer;
  /** A LISTEN or UNLISTEN: its channel ("*" for UNLISTEN *). */
  listen?: { unlisten: boolean; channel: string };
  /** Run for the server itself (the rollback of a vanished client): nobody gets the answer. */
  internal?: boolean;
}

class Connection {
  buffer: Buffer = Buffer.alloc(0);
  started = false;
  pending: Buffer[] = [];
  channels = new Set<string>();
  closed = false;
  constructor(readonly socket: net.Socket) {}
}

export interface PgliteServer {
  /** The connection string the app workers use (postgres://…?host=<socket folder>). */
  url: string;
  close(): Promise<void>;
}

export async function servePglite(pglite: PGlite, options: { socketDir: string; database?: string }): Promise<PgliteServer> {
  const socketPath = `${options.socketDir}/.s.PGSQL.5432`;
  fs.rmSync(socketPath, { force: true });
  const connections = new Set<Connection>();
  const queue: Unit[] = [];
  /** The connection whose transaction is open: only its requests run until it ends. */
  let owner: Connection | undefined;
  let status = "I";
  let running = false;
  let nextProcessId = 1;
  /** Named statements prepared in the session, least recently used first. */
  const prepared = new Set<string>();
  /**
   * The Parse message of each statement name, to prepare it again once dropped (a connection still
   * believes it prepared, and sends only Bind): as many as the app has parameterised query texts.
   */
  const parses = new Map<string, Buffer>();

  const send = (connection: Connection, data: Buffer) => {
    if (!connection.closed && data.length) connection.socket.write(data);
  };

  /**
   * Runs a unit and gives PostgreSQL's answer as it came. Not through `execProtocolRaw`: it also
   * parses every answer into a list of results that only `execProtocol()` empties, so the process
   * serving PGlite kept every answer it ever served, until its heap ran out under load.
   */
  async function execute(bytes: Buffer): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await pglite.execProtocolRawStream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), {
      // A view of PGlite's memory, valid only during the call.
      onRawData: (chunk) => chunks.push(Buffer.from(chunk)),
    });
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  /** Sends a unit's answer to its connection and its notifications to their listeners. */
  function deliver(unit: Unit, answer: Buffer) {
    const own: Buffer[] = [];
    for (const { type, bytes } of protocolMessages(answer)) {
      if (type === "A") {
        // NotificationResponse: int32 pid, channel, payload.
        const channel = bytes.subarray(9, bytes.indexOf(0, 9)).toString("utf8");
        for (const connection of connections) if (connection.channels.has(channel)) send(connection, Buffer.from(bytes));
        continue;
      }
      if (type === "Z") status = String.fromCharCode(bytes[5]!);
      own.push(bytes);
    }
    if (!unit.internal) send(unit.connection, Buffer.concat(own));
  }

  async function run(unit: Unit) {
    const { connection } = unit;
    if (unit.listen) {
      const { unlisten, channel } = unit.listen;
      if (unlisten) {
        if (channel === "*") connection.channels.clear();
        else connection.channels.delete(channel);
        // The session keeps listening for the others; this connection just stops receiving.
        send(connection, Buffer.concat([message("C", cstring("UNLISTEN")), readyForQuery(status)]));
        return;
      }
      connection.channels.add(channel);
    }
    if (unit.bytes[0] === 0x51) {
      deliver(unit, await execute(unit.bytes));
    } else {
      await runExtended(unit);
    }
    owner = status === "I" || unit.internal ? undefined : connection;
  }

  /** Marks a statement as used now (the end of the set is the most recently used). */
  function touch(name: string) {
    prepared.delete(name);
    prepared.add(name);
  }

  /**
   * An extended-protocol unit, with the session's named statements shared: a Parse the session
   * already holds for that text is answered without running it, a Bind on a dropped statement is
   * preceded by its Parse again. pg sends the Parse, when there is one, first.
   */
  async function runExtended(unit: Unit) {
    const messages = [...protocolMessages(unit.bytes)];
    const first = messages[0];
    let bytes = unit.bytes;
    let answered: "parse" | "reparse" | undefined;
    let parsing: string | undefined;
    if (first?.type === "P") {
      const name = cstringAt(first.bytes, 5).text;
      const known = parses.get(name);
      if (name && prepared.has(name) && known?.equals(first.bytes)) {
        bytes = bytes.subarray(first.bytes.length);
        answered = "parse";
        touch(name);
      } else if (name && !prepared.has(name)) {
        parses.set(name, Buffer.from(first.bytes));
        parsing = name;
      }
    } else if (first?.type === "B") {
      const name = cstringAt(first.bytes, cstringAt(first.bytes, 5).end + 1).text;
      const parse = parses.get(name);
      if (name && prepared.has(name)) touch(name);
      else if (parse) {
        bytes = Buffer.concat([parse, bytes]);
        answered = "reparse";
        parsing = name;
      }
    }

    let answer = await execute(bytes);
    if (parsing && answer[0] === PARSE_COMPLETE[0]) touch(parsing);
    if (answered === "parse") answer = Buffer.concat([PARSE_COMPLETE, answer]);
    if (answered === "reparse" && answer[0] === PARSE_COMPLETE[0]) answer = answer.subarray(PARSE_COMPLETE.length);
    for (const { type, bytes: closing } of messages) {
      if (type === "C" && closing[5] === 0x53) prepared.delete(cstringAt(closing, 6).text);
    }
    deliver(unit, answer);
    // Beyond the limit, the least recently used statements go (between transactions only: in an
    // aborted one, DEALLOCATE would fail and the set would no longer tell the truth).
    while (prepared.size > PREPARED_STATEMENTS_KEPT && status === "I") {
      const oldest = prepared.values().next().value!;
      prepared.delete(oldest);
      await execute(message("Q", cstring(`DEALLOCATE "${oldest.replaceAll('"', '""')}"`)));
    }
  }

  async function drain() {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const index = owner ? queue.findIndex((unit) => unit.connection === owner) : 0;
        if (index < 0 || !queue.length) break;
        const [unit] = queue.splice(index, 1);
        if (unit!.connection.closed && !unit!.internal) continue;
        try {
          await run(unit!);
        } catch (error) {
          send(
            unit!.connection,
            Buffer.concat([errorResponse("XX000", String((error as Error)?.message ?? error)), readyForQuery(status)]),
          );
        }
      }
    } finally {
      running = false;
    }
  }

  function startup(connection: Connection, code: number, length: number) {
    if (code === SSL_REQUEST || code === GSS_REQUEST) {
      connection.socket.write("N");
      return;
    }
    if (code === CANCEL_REQUEST) {
      connection.socket.end();
      return;
    }
    connection.started = true;
    const key = Buffer.alloc(8);
    key.writeInt32BE(nextProcessId++, 0);
    send(
      connection,
      Buffer.concat([
        message("R", Buffer.alloc(4)), // AuthenticationOk
        parameterStatus("server_version", "17.5"),
        parameterStatus("server_encoding", "UTF8"),
        parameterStatus("client_encoding", "UTF8"),
        parameterStatus("DateStyle", "ISO, MDY"),
        parameterStatus("integer_datetimes", "on"),
        parameterStatus("standard_conforming_strings", "on"),
        parameterStatus("TimeZone", "UTC"),
        message("K", key),
        readyForQuery(owner && owner !== connection ? "I" : status),
      ]),
    );
    void length;
  }

  function receive(connection: Connection, chunk: Buffer) {
    connection.buffer = connection.buffer.length ? Buffer.concat([connection.buffer, chunk]) : chunk;
    let offset = 0;
    const data = connection.buffer;
    while (true) {
      if (!connection.started) {
        if (data.length - offset < 8) break;
        const length = data.readInt32BE(offset);
        if (data.length - offset < length) break;
        startup(connection, data.readInt32BE(offset + 4), length);
        offset += length;
        continue;
      }
      if (data.length - offset < 5) break;
      const length = data.readInt32BE(offset + 1);
      if (data.length - offset < 1 + length) break;
      const type = String.fromCharCode(data[offset]!);
      const bytes = data.subarray(offset, offset + 1 + length);
      offset += 1 + length;
      if (type === "X") {
        connection.socket.end();
        continue;
      }
      if (type === "Q") {
        const text = bytes.subarray(5, bytes.length - 1).toString("utf8");
        const match = LISTEN.exec(text);
        queue.push({
          connection,
          bytes: Buffer.from(bytes),
          listen: match ? { unlisten: match[1]!.toLowerCase() === "unlisten", channel: match[3]! } : undefined,
        });
        continue;
      }
      connection.pending.push(Buffer.from(bytes));
      if (type === "S") {
        queue.push({ connection, bytes: Buffer.concat(connection.pending) });
        connection.pending = [];
      }
    }
    connection.buffer = offset < data.length ? Buffer.from(data.subarray(offset)) : Buffer.alloc(0);
    void drain();
  }

  async function disconnected(connection: Connection) {
    if (connection.closed) return;
    connection.closed = true;
    connections.delete(connection);
    if (owner === connection) {
      // Its transaction must not stay open for the others: roll it back before anyone else runs.
      queue.unshift({ connection, bytes: message("Q", cstring("ROLLBACK")), internal: true });
      owner = undefined;
      void drain();
    }
  }

  const server = net.createServer((socket) => {
    const connection = new Connection(socket);
    connections.add(connection);
    socket.on("data", (chunk: Buffer) => receive(connection, chunk));
    socket.on("error", () => void disconnected(connection));
    socket.on("close", () => void disconnected(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);

  const url = `postgres://campus@localhost/${options.database ?? "campus"}?host=${encodeURIComponent(options.socketDir)}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const connection of connections) connection.socket.destroy();
        server.close(() => resolve());
      }),
  };
}
