import { faultName, parseFaultList } from './fault-plan';
import { parseOptions, type ChaosOptions } from './options';

const parsed = (argv: string[]) => parseOptions(argv) as ChaosOptions;

describe('chaos options', () => {
  it('by default kills then freezes every target once, then two pairs', () => {
    const options = parsed([]);
    expect(options.faults.map(faultName)).toEqual([
      'kill:relay-1',
      'kill:billing-1',
      'kill:auth',
      'kill:admin',
      'kill:gateway',
      'kill:kafka',
      'kill:redis',
      'kill:postgres',
      'freeze:relay-1',
      'freeze:billing-1',
      'freeze:auth',
      'freeze:admin',
      'freeze:gateway',
      'freeze:kafka',
      'freeze:redis',
      'freeze:postgres',
      'kill:relay-1+billing-1',
      'freeze:redis+auth',
    ]);
    // Longer than Kafka's 30 s consumer session, the longest deadline a freeze has to outlast.
    expect(options.freezeSeconds).toBeGreaterThan(30);
  });

  it('has a quick mode with fewer faults and shorter waits, which flags still override', () => {
    const quick = parsed(['--quick']);
    expect(quick.faults.length).toBeLessThan(parsed([]).faults.length);
    expect(quick.freezeSeconds).toBeLessThan(parsed([]).freezeSeconds);
    expect(parsed(['--quick', '--freeze-seconds', '40']).freezeSeconds).toBe(40);
    // The tight-balance client is to reach zero within the run, however long it is.
    expect(quick.tightQuota).toBeLessThan(parsed([]).tightQuota);
    expect(parsed(['--tight-quota', '5000']).tightQuota).toBe(5000);
  });

  it('reads a fault list with pairs', () => {
    expect(parseFaultList(' kill:postgres , freeze:redis+auth ')).toEqual([
      { mode: 'kill', targets: ['postgres'] },
      { mode: 'freeze', targets: ['redis', 'auth'] },
    ]);
  });

  it.each([
    ['', 'names no fault'],
    ['kill', 'is not MODE:TARGET'],
    ['pause:relay-1', 'mode must be one of kill, freeze'],
    ['kill:relay-3', 'unknown target relay-3'],
    ['kill:redis+redis', 'a target named twice'],
    ['kill:redis+auth+admin', 'at most two targets'],
  ])('refuses the fault list %p', (list, message) => {
    expect(() => parseFaultList(list)).toThrow(message);
  });

  it('refuses durations that are not positive whole numbers', () => {
    expect(() => parseOptions(['--freeze-seconds', '0'])).toThrow(
      '--freeze-seconds must be a positive whole number',
    );
    expect(() => parseOptions(['--clients', '2.5'])).toThrow('--clients must be a positive whole number');
  });
});
