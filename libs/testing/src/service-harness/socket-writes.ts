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
