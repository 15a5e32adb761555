from .form import FlaskForm as FlaskForm
