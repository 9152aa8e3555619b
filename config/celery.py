"""The Celery application. It reads every ``CELERY_*`` Django setting and finds each app's
``tasks`` module. Without ``CELERY_BROKER_URL`` the settings make tasks run eagerly, in the
calling process, so the product needs no broker on a bare machine."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from kombu.transport import TRANSPORT_ALIASES

from config.liveness import WorkerLiveness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The Redis transport and worker consumer that outlive a Redis outage (config/broker.py).
TRANSPORT_ALIASES["redis"] = TRANSPORT_ALIASES["rediss"] = "config.broker:Transport"

app = Celery("pymtheg")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.worker_consumer = "config.broker:Consumer"
app.autodiscover_tasks()

# The worker's and beat's signs of life for /healthz (config/liveness.py).
app.steps["worker"].add(WorkerLiveness)
app.conf.beat_scheduler = "config.liveness:Scheduler"


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(sender=None, **kwargs) -> None:
    """Around each task, what Django does around a web request: drop a database connection
    that is broken or older than ``CONN_MAX_AGE`` (Celery's own closing waits for
    ``CELERY_DB_REUSE_MAX`` tasks). An eager task runs in its caller's connection and
    transaction, which are the caller's to manage."""
    if sender is None or getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
