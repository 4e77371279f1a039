// The global process, and node:os / node:util loaded when the first error is built, not at load: every process under
// the cwdkit/register flag loads core at start-up (see runtime.ts and shared.ts).
import { builtin } from './shared.js';

const { process } = globalThis;

export type CwdkitErrorCode =
  | 'ERR_INVALID_ARG_TYPE'
  | 'ERR_INVALID_ARG_VALUE'
  | 'ERR_CWDKIT_CLOSED'
  | 'ERR_CWDKIT_INVALID_STRATEGY'
  | 'ERR_CWDKIT_UNKNOWN_STRATEGY'
  | 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED'
  | 'ERR_CWDKIT_STRATEGY_LOAD_FAILED'
  | 'ERR_CWDKIT_NO_STRATEGY'
  | 'ERR_CWDKIT_MODULE_FROM_ENV'
  | 'ERR_CWDKIT_INVALID_CONFIG'
  | 'ERR_CWDKIT_CONFIG_FILE'
  | 'ERR_CWDKIT_ALREADY_INSTALLED'
  | 'ERR_CWDKIT_INSTALL_REFUSED'
  | 'ERR_CWDKIT_BUNDLED'
  | 'ERR_CWDKIT_NATIVE_UNAVAILABLE'
  | 'ERR_CWDKIT_UNSUPPORTED_RUNTIME'
  | 'ERR_CWDKIT_UNSHARE_FAILED'
  | 'ERR_CWDKIT_ASYNC_IN_FLIGHT'
  | 'ERR_CWDKIT_WATCH_THREAD'
  | 'ERR_CWDKIT_WORKER_CLASS_CAPTURED'
  | 'ERR_CWDKIT_CWD_TOO_LONG'
  | 'ERR_CWDKIT_SOCKET_PATH_TOO_LONG'
  | 'ERR_CWDKIT_UNKNOWN_CHECK'
  | (string & {});

/** An Error with a `code`, the shape every cwdkit failure has. */
export function codedError<E extends Error>(error: E, code: CwdkitErrorCode): E & { code: string } {
  return Object.assign(error, { code });
}

/**
 * What was received, worded as Node's own argument errors word it (determineSpecificType in lib/internal/errors.js,
 * the same on Node 20 to 26), so that a chdir refused by cwdkit reads as the runtime's.
 */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  switch (typeof value) {
    case 'bigint':
      return `type bigint (${value}n)`;
    case 'number':
      return `type number (${Object.is(value, -0) ? '-0' : String(value)})`;
    case 'function':
      return `function ${value.name}`;
    case 'object': {
      const maker = (value as { constructor?: unknown }).constructor;
      if ((typeof maker === 'function' || (typeof maker === 'object' && maker)) && 'name' in maker) {
        return `an instance of ${String(maker.name)}`;
      }
      return builtin<typeof import('node:util')>('node:util').inspect(value, { depth: -1 });
    }
    default:
      return `type ${typeof value} (${String(value)})`; // boolean, symbol (a string is no error)
  }
}

/** The argument checks every chdir() makes before it touches anything. */
export function checkDirectory(directory: unknown): asserts directory is string {
  if (typeof directory !== 'string') {
    throw codedError(
      new TypeError(`The "directory" argument must be of type string. Received ${describe(directory)}`),
      'ERR_INVALID_ARG_TYPE',
    );
  }
  if (directory.includes('\0')) {
    // Node and Bun silently cut the path at the NUL byte and go elsewhere: refuse instead.
    throw codedError(
      new TypeError(
        `The argument 'directory' must be a string without null bytes. Received ${JSON.stringify(directory)}`,
      ),
      'ERR_INVALID_ARG_VALUE',
    );
  }
}

export interface ChdirError extends Error {
  code: string;
  errno?: number;
  syscall: 'chdir';
  /** The working directory when chdir was called, as Node reports it. */
  path: string;
  /** The directory that was asked for. */
  dest: string;
}

/** libuv's error texts by errno, read when the first error is built (not at load: it is part of every start-up). */
let systemErrors: Map<number, [string, string]> | undefined | null = null;
function systemErrorText(errno: number): string | undefined {
  if (systemErrors === null) {
    try {
      systemErrors = builtin<{ getSystemErrorMap(): Map<number, [string, string]> }>('node:util').getSystemErrorMap();
    } catch {
      systemErrors = undefined;
    }
  }
  return systemErrors?.get(-errno)?.[1];
}

/** The errno number of an error code such as 'ENOENT', from node:os (loaded on the first error). */
function errnoOf(code: string): number | undefined {
  return builtin<{ constants: { errno: Record<string, number | undefined> } }>('node:os').constants.errno[code];
}

/** The error a failed chdir throws, shaped exactly like Node's own process.chdir error. */
export function chdirError(code: string, from: string, dest: string, description?: string): ChdirError {
  const errno = errnoOf(code);
  const text = description ?? (errno === undefined ? undefined : systemErrorText(errno)) ?? code;
  const error = new Error(`${code}: ${text}, chdir '${from}' -> '${dest}'`) as ChdirError;
  if (errno !== undefined) error.errno = -errno;
  error.code = code;
  error.syscall = 'chdir';
  error.path = from;
  error.dest = dest;
  return error;
}

/** Whether a thrown value is an Error that carries a string `code`. */
export function hasCode(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

/** Node 23+ and Bun say more than libuv's text when the cwd was deleted; Node 20 and 22 say libuv's. */
const longNotFound =
  typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined' ||
  (typeof (globalThis as { Deno?: unknown }).Deno === 'undefined' && Number(process.versions.node.split('.')[0]) >= 23);

/**
 * The error a failed read of the cwd throws, worded as this runtime's own process.cwd() words it (one text per
 * runtime, whichever strategy answers), with `code` and `syscall: 'uv_cwd'`.
 */
export function cwdError(code: string, description?: string): Error & { code: string; syscall: 'uv_cwd' } {
  const errno = errnoOf(code);
  const text =
    description ??
    (code === 'ENOENT' && longNotFound
      ? 'process.cwd failed with error no such file or directory, the current working directory was likely removed without changing the working directory'
      : code === 'EILSEQ'
        ? 'the name of the current working directory is not valid UTF-8'
        : ((errno === undefined ? undefined : systemErrorText(errno)) ?? code));
  const error = new Error(`${code}: ${text}, uv_cwd`);
  return Object.assign(error, errno === undefined ? {} : { errno: -errno }, { code, syscall: 'uv_cwd' as const });
}
