"""Answer writers: the hosted providers, their retry layer, the offline writer, and the citation check."""
