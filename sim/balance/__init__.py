"""The balance solver (``zonesim balance``): the balance file (``spec``) and the search (``solve``)."""
