import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';
import { RootUserService } from './root-user.service';
import { UsersRepository } from './users.repository';

@Module({
  providers: [PasswordHasher, UsersRepository, RootUserService],
  exports: [PasswordHasher, UsersRepository],
})
export class UsersModule {}
