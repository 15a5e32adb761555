"""The app as gunicorn serves it for the benchmark: on the benchmark's own database."""

import os

from scorekeeper import create_app

app = create_app(
    {
        "SQLALCHEMY_DATABASE_URI": os.environ["BENCH_DATABASE_URL"],
        "SECRET_KEY": os.environ["BENCH_SECRET_KEY"],
    }
)
