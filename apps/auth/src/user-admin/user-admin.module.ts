import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/balances.module';
import { BillingClientModule } from '../billing/billing-client.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { UserAdminController } from './user-admin.controller';
import { UserAdminService } from './user-admin.service';

@Module({
  imports: [UsersModule, BalancesModule, BillingClientModule, TokensModule],
  controllers: [UserAdminController],
  providers: [UserAdminService],
})
export class UserAdminModule {}
