"""The HTTP layer: the API's endpoints, its validation and its one JSON error shape, and the page's headers."""
