import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AffiliateController } from './affiliate.controller';
import { AffiliateService } from './affiliate.service';

@Module({ imports: [UsersModule], controllers: [AffiliateController], providers: [AffiliateService] })
export class AffiliateModule {}
