-- One database per service: no service reads another's tables.
CREATE DATABASE tollgate_auth;
CREATE DATABASE tollgate_billing;
CREATE DATABASE tollgate_chat;
CREATE DATABASE tollgate_admin;
