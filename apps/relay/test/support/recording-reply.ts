import { ClientGoneError, type ClientReply } from '../../src/pipeline/client-reply';
import { CallAbortSource } from '../../src/upstream/call-abort';

/** A client's reply that keeps what the relay sent it, for unit specs of the pipeline. */
export class RecordingReply implements ClientReply {
  readonly controller = new CallAbortSource();
  readonly written: string[] = [];
  readonly headers: Record<string, string> = {};
  json: { status: number; body: unknown } | undefined;
  raw: { status: number; contentType: string; body: string } | undefined;
  streamStarted = false;
  ended = false;
  /** Throw ClientGoneError from this write on (0-based), as a client that left would. */
  goneAfterWrites = Infinity;

  get aborted() {
    return this.controller.aborted;
  }
  onAbort(listener: () => void) {
    return this.controller.onAbort(listener);
  }
  setHeaders(headers: Readonly<Record<string, string>>) {
    Object.assign(this.headers, headers);
  }
  sendJson(status: number, body: unknown) {
    this.json = { status, body };
  }
  sendRaw(status: number, contentType: string, body: Buffer | string) {
    this.raw = { status, contentType, body: String(body) };
  }
  startStream() {
    this.streamStarted = true;
  }
  async write(text: string | Buffer) {
    if (this.written.length >= this.goneAfterWrites) {
      this.controller.abort();
      throw new ClientGoneError();
    }
    this.written.push(String(text));
  }
  end() {
    this.ended = true;
  }
  /** Everything written, in order. */
  get text() {
    return this.written.join('');
  }
}
