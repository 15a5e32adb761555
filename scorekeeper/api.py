"""The JSON API of API.md."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
