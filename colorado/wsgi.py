import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")

from colorado.client_address import ClientAddressWsgi

# The real client address, decided once (colorado/client_address.py).
application = ClientAddressWsgi(get_wsgi_application())
