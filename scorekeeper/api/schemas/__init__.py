"""The API's request and answer models.

They are the one source of its checks and of its OpenAPI document (docs/decisions/api.md, "One
source for the contract")."""
