import type { PGlite } from "@electric-sql/pglite";
import { cstring, message as protocolMessage, PREPARED_STATEMENTS_KEPT } from "./pglite-server";

/**
 * PGlite's `query()` sends every statement unnamed (Parse, Describe statement, Bind, Describe
 * portal, Execute, Sync), so PostgreSQL parses and plans it again at every run, and planning was
 * most of PGlite's time on a page (docs/performance.md). This gives the in-process PGlite what the
 * app workers get from naming their statements (./client.ts, ./pglite-server.ts): each
 * parameterised statement is prepared once under a name of its own, its later runs send only
 * Bind, and PostgreSQL keeps its plan.
 *
 * It works on the messages PGlite hands to `execProtocolStream`, one call per message, in turn
 * (PGlite runs one query at a time): a Parse it already holds is not sent again, and the
 * statement's Describe (its parameter types, fixed by the Parse) is answered from memory; the
 * Describe and the Bind that follow a Parse are pointed at its name. Statements without
 * parameters stay unnamed, so texts built around inlined values do not pile up. The least
 * recently used statement beyond `kept` is closed. A statement whose plan PostgreSQL refuses to
 * reuse because its tables changed shape (not while the app runs: migrations come first) fails
 * that once, and is then forgotten and prepared again under a new name.
 */
export function keepQueryPlans(pglite: PGlite, options: { kept?: number } = {}) {
  const kept = options.kept ?? PREPARED_STATEMENTS_KEPT;
  const send = pglite.execProtocolStream.bind(pglite);
  type Messages = Awaited<ReturnType<typeof send>>;
  interface Statement {
    name: string;
    description?: Messages;
  }
  /** By the Parse message's text and parameter types, least recently used first. */
  const statements = new Map<string, Statement>();
  /** The statement of the query under way, from its Parse to its Bind. */
  let current: { key: string; statement: Statement } | undefined;

  pglite.execProtocolStream = async (message, sendOptions) => {
    switch (message[0]) {
      case PARSE: {
        current = undefined;
        // An unnamed Parse: 'P', length, "" (name), text, parameter types.
        if (message[5] !== 0) break;
        const key = Buffer.from(message.buffer, message.byteOffset + 6, message.length - 6).toString("latin1");
        if (!key.includes("$1")) break;
        const known = statements.get(key);
        if (known) {
          statements.delete(key);
          statements.set(key, known);
          current = { key, statement: known };
          return [];
        }
        const statement = { name: `campus_local_${nextName++}` };
        const answer = await send(withName(message, 5, statement.name), sendOptions);
        statements.set(key, statement);
        current = { key, statement };
        if (statements.size > kept) await closeOldest(sendOptions);
        return answer;
      }
      case DESCRIBE: {
        if (!current || message[5] !== STATEMENT || message[6] !== 0) break;
        const { statement } = current;
        if (!statement.description) statement.description = await send(withName(message, 6, statement.name), sendOptions);
        // A copy: PGlite's describeQuery() appends its Sync's answer to this list.
        return [...statement.description];
      }
      case BIND: {
        // 'B', length, "" (portal), "" (statement), ...
        if (!current || message[5] !== 0 || message[6] !== 0) break;
        const { key, statement } = current;
        current = undefined;
        try {
          return await send(withName(message, 6, statement.name), sendOptions);
        } catch (error) {
          if ((error as { code?: string }).code === PLAN_CHANGED_SHAPE) statements.delete(key);
          throw error;
        }
      }
    }
    return send(message, sendOptions);
  };

  async function closeOldest(sendOptions: Parameters<typeof send>[1]) {
    const [key, oldest] = statements.entries().next().value!;
    statements.delete(key);
    await send(closeStatement(oldest.name), sendOptions);
  }
}

/** Numbers the statements of every PGlite of the process, so that two never share a name. */
let nextName = 1;

const PARSE = 0x50;
const DESCRIBE = 0x44;
const BIND = 0x42;
const STATEMENT = 0x53;
/** "cached plan must not change result type": a table a statement reads changed shape. */
const PLAN_CHANGED_SHAPE = "0A000";

/** The message with `name` written in place of the empty string at `offset`. */
function withName(message: Uint8Array, offset: number, name: string) {
  const nameBytes = Buffer.from(name, "latin1");
  const out = Buffer.alloc(message.length + nameBytes.length);
  out.set(message.subarray(0, offset), 0);
  out.set(nameBytes, offset);
  out.set(message.subarray(offset), offset + nameBytes.length);
  out.writeInt32BE(out.length - 1, 1);
  return out;
}

/** Close ('C') of a prepared statement ('S'). */
function closeStatement(name: string) {
  return protocolMessage("C", Buffer.concat([Buffer.from("S", "latin1"), cstring(name)]));
}
