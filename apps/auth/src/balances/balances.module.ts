import { Module } from '@nestjs/common';
import { BalancesReadModel } from './balances-read-model';

@Module({ providers: [BalancesReadModel], exports: [BalancesReadModel] })
export class BalancesModule {}
