import { MemoryKvStore } from '../../src';
import { describeKvStoreContract } from '../contract/kv-store.contract';

describeKvStoreContract('MemoryKvStore', () => new MemoryKvStore());
