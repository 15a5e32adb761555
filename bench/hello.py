"""The reference page: a bare Flask "hello", served by gunicorn like the app."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, World!"
