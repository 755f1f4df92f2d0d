// HeraldViewModels
