import type { Socket } from 'node:net';

/**
 * What `socket` is asked to send from now on, one entry per system call's worth (a `_write`, or a
 * `_writev` of several chunks joined): for specs of how many writes a response takes.
 */
export function recordSocketWrites(socket: Socket): string[] {
  const writes: string[] = [];
  const write = socket._write.bind(socket);
  const writev = socket._writev!.bind(socket);
  socket._write = (chunk: Buffer | string, encoding, callback) => {
    writes.push(String(chunk));
    write(chunk, encoding, callback);
  };
  socket._writev = (chunks, callback) => {
    writes.push(chunks.map(({ chunk }) => String(chunk)).join(''));
    writev(chunks, callback);
  };
  return writes;
}

/** Each recorded socket's current list (recordSocketWriteCalls wraps a socket's `write` once). */
const writeCallLists = new WeakMap<Socket, { calls: string[] }>();

/**
 * What `socket.write` is called with from now on, one entry a call (its first argument as text): for
 * specs of how many writes a piece of a response is handed to the socket in. Called again for the same
 * (kept-alive) socket, it starts a new list.
 */
export function recordSocketWriteCalls(socket: Socket): string[] {
  const calls: string[] = [];
  const recorded = writeCallLists.get(socket);
  if (recorded !== undefined) {
    recorded.calls = calls;
    return calls;
  }
  const recording = { calls };
  writeCallLists.set(socket, recording);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((...args: unknown[]) => {
    recording.calls.push(String(args[0]));
    return write(...args);
  }) as Socket['write'];
  return calls;
}
