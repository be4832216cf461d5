"""Files become passages: parsing and the readers, structure, sizing and chunking, jobs, the default library."""
