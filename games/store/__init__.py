"""The SQL behind the move path and the sockets: ``backends`` (the one store interface, its
PostgreSQL and plain ORM implementations), ``rows`` and ``row_locks`` (plain-SQL writes and
locking reads), ``pgvalues`` and ``jsontext`` (values to and from PostgreSQL, JSON text),
``db_threads`` (the threads that do the database work) and ``state_cache`` (engine states
loaded from ``Game.state``, kept per process)."""
