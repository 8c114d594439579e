import { data, isRouteErrorResponse, type ServerBuild } from "react-router";
import { requestIdContext } from "../context";
import { AppError } from "../errors";
import { BodyTooLargeError } from "./edge";
import { httpErrorOf } from "./errors";

/**
 * What escapes a route becomes an HTTP answer here, in one place for every loader, action and
 * middleware of the app (docs/decisions/0020-bounded-requests.md):
 * - redirects, responses and route errors (`data(...)`, `orHttpError`) pass unchanged;
 * - an AppError gets its status from the one mapping (./errors.ts);
 * - a body the action cannot read: 400, or 415 when it is not of the kind it reads; a body over
 *   the limit: 413 (the edge has already answered it);
 * - a value PostgreSQL refuses as data (NUL byte, number or date out of range: class 22) is bad
 *   input, 400; a constraint a concurrent request won (class 23), 409;
 * - anything else is a bug: logged with the request id, answered 500 with that id and nothing else.
 * The answer of a page route is an error response its error boundary shows (with `requestId`);
 * a resource route's is a plain-text response.
 */

/** What the error page of a refused request receives (`error.data`). */
export type RouteErrorData = { code: string; message: string; requestId?: string };

type Log = (message: string, error: unknown) => void;
type AnyFunction = (...args: never[]) => unknown;
type RouteArgs = { request: Request; context: { get(context: typeof requestIdContext): string } };

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** A refusal of the request itself, answered with `status` and a French message. */
class RequestRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RequestRefusal";
  }
}

const messages = {
  tooLarge: "Le contenu envoyé dépasse la taille autorisée.",
  notAForm: "Cette adresse attend un formulaire (application/x-www-form-urlencoded ou multipart/form-data).",
  notJson: "Cette adresse attend du JSON (application/json).",
  unreadable: "Le contenu envoyé est illisible.",
  forbiddenCharacter: "Le formulaire contient un caractère interdit.",
  badValue: "La demande contient une valeur invalide (caractère interdit, nombre ou date hors limites).",
  conflict: "Cette modification est en conflit avec une autre, faite au même moment. Rechargez la page et réessayez.",
  internal: "Nous n'avons pas pu traiter cette demande. Réessayez dans un instant.",
};

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 6; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/** The SQLSTATE of a database error (drizzle wraps the driver's error in `cause`). */
export function postgresCodeOf(error: unknown): string | null {
  for (const link of causes(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

function contentTypeOf(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

function bodyFailure(request: Request, error: unknown, expected: "form" | "json"): RequestRefusal {
  if (causes(error).some((link) => link instanceof BodyTooLargeError)) return new RequestRefusal(413, "too_large", messages.tooLarge);
  const type = contentTypeOf(request);
  if (expected === "form" && !FORM_TYPES.includes(type)) return new RequestRefusal(415, "unsupported_media_type", messages.notAForm);
  if (expected === "json" && type !== "application/json") return new RequestRefusal(415, "unsupported_media_type", messages.notJson);
  return new RequestRefusal(400, "unreadable_body", messages.unreadable);
}

/**
 * The request an action receives: reading its body as a form or JSON either succeeds, with no
 * NUL byte in any field, or refuses the request (400, 413, 415) instead of throwing a TypeError.
 */
function guardBody(request: Request) {
  const formData = request.formData.bind(request);
  const json = request.json.bind(request);
  const text = request.text.bind(request);
  Object.defineProperties(request, {
    formData: {
      value: async () => {
        let form: FormData;
        try {
          form = await formData();
        } catch (error) {
          throw bodyFailure(request, error, "form");
        }
        for (const [name, value] of form) {
          if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) {
            throw new RequestRefusal(400, "forbidden_character", messages.forbiddenCharacter);
          }
        }
        return form;
      },
    },
    json: {
      value: async () => {
        try {
          return await json();
        } catch (error) {
          throw bodyFailure(request, error, "json");
        }
      },
    },
    text: {
      value: async () => {
        try {
          return await text();
        } catch (error) {
          throw bodyFailure(request, error, "form");
        }
      },
    },
  });
}

function isPassThrough(error: unknown): boolean {
  // `data(...)` thrown by a route (a DataWithResponseInit, which React Router exports as a type only).
  const thrownData = typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
  return error instanceof Response || thrownData || isRouteErrorResponse(error);
}

/** The HTTP answer to what a route threw (see the module's comment). */
export function routeErrorAnswer(error: unknown, options: { requestId: string; resource: boolean; log: Log; where: string }): unknown {
  if (isPassThrough(error)) return error;
  let status: number;
  let body: RouteErrorData;
  if (error instanceof AppError) {
    if (!options.resource) return httpErrorOf(error);
    const answer = httpErrorOf(error);
    status = answer.init?.status ?? 400;
    body = { code: error.code, message: error.message };
  } else if (error instanceof RequestRefusal) {
    status = error.status;
    body = { code: error.code, message: error.message };
  } else if (causes(error).some((link) => link instanceof BodyTooLargeError)) {
    status = 413;
    body = { code: "too_large", message: messages.tooLarge };
  } else {
    const sqlState = postgresCodeOf(error);
    if (sqlState?.startsWith("22")) {
      status = 400;
      body = { code: "invalid_value", message: messages.badValue };
    } else if (sqlState?.startsWith("23")) {
      options.log(`[${options.requestId}] ${options.where}: conflict (${sqlState})`, error);
      status = 409;
      body = { code: "conflict", message: messages.conflict };
    } else {
      options.log(`[${options.requestId}] ${options.where}`, error);
      status = 500;
      body = { code: "internal", message: messages.internal };
    }
  }
  body.requestId = options.requestId;
  if (options.resource) {
    return new Response(`${body.message}\nRéférence : ${options.requestId}\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return data<RouteErrorData>(body, { status });
}

function requestIdOf(args: RouteArgs): string {
  try {
    return args.context.get(requestIdContext);
  } catch {
    return "";
  }
}

function wrap<F extends AnyFunction>(fn: F, kind: "loader" | "action" | "middleware", routeId: string, resource: boolean, log: Log): F {
  const wrapped = async (...params: unknown[]) => {
    const args = params[0] as RouteArgs;
    if (kind === "action") guardBody(args.request);
    try {
      return await (fn as unknown as (...args: unknown[]) => unknown)(...params);
    } catch (error) {
      throw routeErrorAnswer(error, {
        requestId: requestIdOf(args),
        resource,
        log,
        where: `${args.request.method} ${new URL(args.request.url).pathname} (${kind} of ${routeId})`,
      });
    }
  };
  return wrapped as unknown as F;
}

const hardened = new WeakMap<ServerBuild, ServerBuild>();

/** The server build with every route's loader, action and middleware answering errors as above (memoized per build). */
export function hardenBuild(build: ServerBuild, log: Log): ServerBuild {
  const known = hardened.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = route.module;
    const resource = module.default == null && module.ErrorBoundary == null;
    routes[id] = {
      ...route,
      module: {
        ...module,
        ...(module.loader ? { loader: wrap(module.loader, "loader", id, resource, log) } : {}),
        ...(module.action ? { action: wrap(module.action, "action", id, resource, log) } : {}),
        ...(module.middleware ? { middleware: module.middleware.map((fn) => wrap(fn, "middleware", id, resource, log)) } : {}),
      },
    };
  }
  const result = { ...build, routes };
  hardened.set(build, result);
  return result;
}
