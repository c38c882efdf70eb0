import { request } from 'node:http';

/** GET `path` over the Unix socket `socketPath` on a connection of its own: the status and body. */
export function getOverSocket(socketPath: string, path = '/'): Promise<{ status: number; body: string }> {
  return new Promise((answer, fail) => {
    const req = request({ socketPath, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => answer({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}
