import { KafkaEventBus, silentEventBusLogger } from '../../src';
import { describeEventBusContract } from '../contract/event-bus.contract';
import { brokers } from './kafka-env';

// Short timings: the suite runs on two shared cores and should not wait on default Kafka timeouts.
const makeBus = () =>
  new KafkaEventBus({
    brokers,
    clientId: 'tollgate-events-contract',
    logger: silentEventBusLogger,
    defaultPartitions: 1,
    lingerMs: 1,
    retry: { initialRetryTime: 100, retries: 5 },
    consumer: {
      sessionTimeout: 6000,
      heartbeatInterval: 300,
      rebalanceTimeout: 3000,
      maxWaitTimeInMs: 100,
      retry: { initialRetryTime: 100, retries: 5 },
    },
  });

describeEventBusContract('KafkaEventBus', makeBus, { restartable: true, deliveryTimeoutMs: 20_000 });
