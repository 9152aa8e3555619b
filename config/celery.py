"""The Celery application. It reads every ``CELERY_*`` Django setting and finds each app's
``tasks`` module. Without ``CELERY_BROKER_URL`` the settings make tasks run eagerly, in the
calling process, so the product needs no broker on a bare machine."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pymtheg")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
