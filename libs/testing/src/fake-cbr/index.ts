export { startFakeCbr, type FakeCbr } from './fake-cbr.server';
