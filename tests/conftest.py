"""The House Way tables are kept in the user's cache (or $PAIGOW_CACHE_DIR) for the whole
run, as the programs keep them: a table is built once, not once a test process."""

from app.cache import use_cache

use_cache()
