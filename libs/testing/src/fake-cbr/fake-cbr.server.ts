import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCbr {
  /** The daily list's URL, for CBR_DAILY_URL. */
  readonly dailyUrl: string;
  /** Rubles per dollar as the bank writes it: `81,1234`. */
  setUsdRate(value: string): void;
  /** While down, every request answers 503 with an HTML page, as the bank's front end does. */
  setDown(down: boolean): void;
  /** Requests served so far. */
  requests(): number;
  close(): Promise<void>;
}

const DAILY_PATH = '/scripts/XML_daily.asp';

/** Latin letters only, so one byte per character: the body is windows-1251 like the bank's, whatever the decoder. */
function dailyXml(usdRate: string, date: string): string {
  return (
    `<?xml version="1.0" encoding="windows-1251"?>` +
    `<ValCurs Date="${date}" name="Foreign Currency Market">` +
    `<Valute ID="R01239"><NumCode>978</NumCode><CharCode>EUR</CharCode><Nominal>1</Nominal><Name>Euro</Name><Value>94,1000</Value><VunitRate>94,1</VunitRate></Valute>` +
    `<Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal><Name>US Dollar</Name><Value>${usdRate}</Value><VunitRate>${usdRate}</VunitRate></Valute>` +
    `<Valute ID="R01820"><NumCode>392</NumCode><CharCode>JPY</CharCode><Nominal>100</Nominal><Name>Yen</Name><Value>53,0127</Value><VunitRate>0,530127</VunitRate></Valute>` +
    `</ValCurs>`
  );
}

const today = (): string => {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(now.getUTCDate())}.${two(now.getUTCMonth() + 1)}.${now.getUTCFullYear()}`;
};

/** The Central Bank of Russia's XML_daily.asp on a loopback port, with a rate and an outage the test controls. */
export async function startFakeCbr(initialUsdRate = '81,1234'): Promise<FakeCbr> {
  let usdRate = initialUsdRate;
  let down = false;
  let served = 0;
  const server = createServer((request, response) => {
    served += 1;
    const path = (request.url ?? '').split('?')[0];
    if (down) {
      response
        .writeHead(503, { 'content-type': 'text/html' })
        .end('<html><body>Service unavailable</body></html>');
    } else if (path === DAILY_PATH) {
      response
        .writeHead(200, { 'content-type': 'application/xml; charset=windows-1251' })
        .end(Buffer.from(dailyXml(usdRate, today()), 'latin1'));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dailyUrl: `http://127.0.0.1:${port}${DAILY_PATH}`,
    setUsdRate: (value) => {
      usdRate = value;
    },
    setDown: (value) => {
      down = value;
    },
    requests: () => served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
