import { freePorts } from './free-port';

describe('freePorts', () => {
  it('gives distinct ports, all released again', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(7);
      expect(new Set(ports).size).toBe(7);
    }
  });
});
